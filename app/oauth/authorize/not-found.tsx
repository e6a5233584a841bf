import { ConsentProblem } from "@/components/oauth/consent";
import { unknownApp } from "@/server/oauth/authorize";

// The consent page's 404: the link names an app (client_id) that is not registered.
export default function UnknownApp() {
  return <ConsentProblem title={unknownApp.title} message={unknownApp.message} />;
}
