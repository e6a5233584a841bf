import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "../..");
/** Library and package declarations parsed once per process: re-parsing lib.dom costs seconds. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks source files that exist only in memory, as if they sat in a folder at the
 * repository root (so `openapi-fetch` and the workspace packages resolve from node_modules).
 * Answers each error as `file:line: message`; an empty list means it compiles.
 */
export function typeCheck(files: Record<string, string>, options: ts.CompilerOptions = {}): string[] {
  const dir = path.join(root, ".typecheck-virtual");
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(dir, name), text]));
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    ...options,
  };
  const host = ts.createCompilerHost(compilerOptions);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.directoryExists = (d) => path.resolve(d) === dir || (directoryExists?.call(host, d) ?? true);
  host.fileExists = (f) => virtual.has(path.resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(path.resolve(f)) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const text = virtual.get(path.resolve(f));
    if (text !== undefined) return ts.createSourceFile(f, text, language);
    if (!parsed.has(f)) parsed.set(f, getSourceFile.call(host, f, language, ...rest));
    return parsed.get(f);
  };
  const program = ts.createProgram([...virtual.keys()].filter((f) => /\.tsx?$/.test(f)), compilerOptions, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : "";
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}
