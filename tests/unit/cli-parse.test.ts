import { describe, expect, it } from "vitest";
import { UsageError } from "@/server/cli/command";
import { parseCommand, type ParsedCommand } from "@/server/cli/index";

const parse = (line: string[]) => parseCommand(line) as ParsedCommand;
const usageError = (line: string[]) => {
  try {
    parseCommand(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error("expected a usage error");
};

describe("parseCommand", () => {
  it("reads a command, its flags and --json in any position", () => {
    const parsed = parse(["--json", "api-keys", "create", "--scopes", "rooms:read+reservations:read rooms:read", "--allow-ip", "10.0.0.1", "--allow-ip", "2001:db8::/32"]);
    expect(parsed.spec.name).toBe("api-keys create");
    expect(parsed.json).toBe(true);
    expect(parsed.input).toEqual({ accountId: undefined, scopes: ["rooms:read", "reservations:read"], name: undefined, allowedIps: ["10.0.0.1/32", "2001:db8::/32"] });
  });

  it("reads limits as numbers and leaves absent ones undefined", () => {
    const parsed = parse(["accounts", "create", "--name", "Harbor", "--plan", "enterprise", "--per-minute", "6000"]);
    expect(parsed.input).toEqual({ name: "Harbor", plan: "enterprise", limits: { perMinute: 6000, perSecond: undefined, perDay: undefined } });
  });

  it("answers help without a database", () => {
    expect(parseCommand([])).toHaveProperty("help");
    expect(parseCommand(["users", "create", "--help"])).toMatchObject({ help: expect.stringContaining("users create --email E") });
  });

  it.each([
    [["rooms", "create"], "Unknown command 'rooms create'"],
    [["accounts", "delete"], "'accounts' takes: create."],
    [["accounts", "create"], "--name is required."],
    [["accounts", "create", "--name", "X", "--plan", "gold"], "--plan must be one of starter, growth, scale, enterprise, not 'gold'."],
    [["accounts", "create", "--name", "X", "--per-day", "1.5"], "--per-day must be a whole number"],
    [["accounts", "create", "--name", "X", "extra"], "Unexpected argument 'extra'"],
    [["api-keys", "create"], "--scopes is required."],
    [["api-keys", "create", "--scopes", "rooms:read", "--allow-ip", "10.0.0.300"], "--allow-ip must be an IPv4 or IPv6 address or CIDR range"],
    [["api-keys", "create", "--scopes", "rooms:read", "--nme", "x"], "Unknown option '--nme'."],
    [["users", "create", "--email", "a@b.c", "--password", "short", "--role", "owner"], "at least 8 characters"],
    [["users", "create", "--email", "a@b.c", "--password", "long-enough", "--role", "chef"], "--role must be one of owner, manager, front_desk, housekeeping"],
    [["oauth-clients", "create", "--name", "App"], "At least one --redirect-uri is required."],
    [["oauth-clients", "create", "--name", "App", "--redirect-uri", "/callback"], "--redirect-uri must be an absolute URL"],
  ])("refuses %j", (line, message) => {
    expect(usageError(line)).toContain(message);
  });
});
