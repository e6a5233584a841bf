package innkeep

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The generated files are what the served document makes today (INNKEEP_OPENAPI names a
// document; otherwise generate.sh writes one with `npm run openapi`).
func TestGeneratedFilesMatchTheServedDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates with oapi-codegen")
	}
	out := t.TempDir()
	args := []string{}
	if doc := os.Getenv("INNKEEP_OPENAPI"); doc != "" {
		args = append(args, doc, out)
	} else {
		args = append(args, "", out)
	}
	cmd := exec.Command("./generate.sh", args...)
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, output)
	}
	for _, name := range []string{"types.gen.go", "resources.gen.go"} {
		fresh, _ := os.ReadFile(filepath.Join(out, name))
		kept, _ := os.ReadFile(name)
		if string(fresh) != string(kept) {
			t.Errorf("%s is out of date: run clients/go/generate.sh", name)
		}
	}
}

// The resources are the TypeScript client's, in Go's naming.
func TestTheResourcesAreTheTypeScriptClients(t *testing.T) {
	ts, err := os.ReadFile("../typescript/src/resources.ts")
	if err != nil {
		t.Fatal(err)
	}
	src := string(ts)
	src = src[strings.Index(src, "export const resourceTable = {"):strings.Index(src, "} as const satisfies")]
	want := map[string]string{}
	for _, r := range regexp.MustCompile(`(?s)(\w+): \{(.*?)\}`).FindAllStringSubmatch(src, -1) {
		for _, m := range regexp.MustCompile(`(\w+): "(\w+)"`).FindAllStringSubmatch(r[2], -1) {
			name := map[string]string{"del": "Delete"}[m[1]]
			if name == "" {
				name = upperFirst(m[1])
			}
			want[upperFirst(r[1])+"."+name] = m[2]
		}
	}
	got := map[string]string{}
	gen, _ := os.ReadFile("resources.gen.go")
	for _, m := range regexp.MustCompile(`func \(s \*(\w+)Service\) (\w+)\(.*\n\treturn \w+(?:\[.*?\])?\(ctx, s\.c, op\{"(\w+)"`).FindAllStringSubmatch(string(gen), -1) {
		if !strings.HasSuffix(m[2], "AutoPaging") {
			got[m[1]+"."+m[2]] = m[3]
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d methods, the TypeScript client has %d", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

func upperFirst(s string) string { r := []rune(s); r[0] = unicode.ToUpper(r[0]); return string(r) }
