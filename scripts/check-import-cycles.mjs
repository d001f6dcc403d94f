// Fails on any cycle between the areas of src/ (an area: the first directory under src), so
// the direction of imports stays one way (docs/architecture.md). Type-only imports are free:
// they vanish from the build. Run by `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Cycles tolerated while they are being removed (none today): each an array of area names. */
const ALLOWED = [];

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });

const areaOf = (file) => {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel.length > 1 && rel[0] !== '..' ? rel[0] : undefined;
};

/** Relative module specifiers of the imports that exist at run time. */
function runtimeImports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out.filter((s) => s.startsWith('.'));
}

/** area -> area -> one import that makes the edge, as an example for the message. */
const edges = new Map();
for (const file of files(SRC)) {
  const from = areaOf(file);
  if (!from) continue;
  for (const spec of runtimeImports(file)) {
    const to = areaOf(path.resolve(path.dirname(file), spec));
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${path.relative(SRC, file)} imports ${spec}`);
  }
}

/** Tarjan's strongly connected components: each with more than one area is a cycle. */
function components() {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const connect = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!info.has(w)) {
        connect(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!info.has(v)) connect(v);
  return found;
}

let failed = false;
for (const scc of components()) {
  const allowed = ALLOWED.some((a) => a.length === scc.length && [...a].sort().every((x, i) => x === scc[i]));
  const lines = scc.flatMap((from) => scc.filter((to) => edges.get(from)?.has(to)).map((to) => `  ${from} -> ${to}: ${edges.get(from).get(to)}`));
  console.error(`${allowed ? 'allowed (being removed)' : 'error'}: a cycle between the areas ${scc.join(', ')}\n${lines.join('\n')}`);
  if (!allowed) failed = true;
}
if (failed) {
  console.error('Areas import one way (docs/architecture.md): move the shared part down (into core) or call the other way.');
  process.exit(1);
}
