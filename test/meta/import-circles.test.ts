// No import circle in src/, type-only imports and re-exports included (docs/architecture.md §Rules and the engine):
// the relative imports of every source file, as TypeScript's pre-processor reads them, form no strongly connected
// component of two or more files.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

/** The relative imports of each file of `files` that name another of them. */
function importGraph(files: readonly string[], read: (f: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = ts
      .preProcessFile(read(f), true, true)
      .importedFiles.filter((i) => i.fileName.startsWith('.'))
      .map((i) => resolve(dirname(f), i.fileName))
      .filter((p) => known.has(p));
    graph.set(f, deps);
  }
  return graph;
}

/** The circles of `graph`: its strongly connected components of two or more files, or one that imports itself. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('no import circle in src/, type-only imports included', () => {
  const files = walk(SRC);
  assert.ok(files.length > 100, 'the walk found the sources');
  const found = circles(importGraph(files, (f) => readFileSync(f, 'utf8'))).map((c) =>
    c.map((f) => f.slice(SRC.length)),
  );
  assert.deepEqual(found, []);
});

test('the check sees a circle made only of type imports', () => {
  const texts: Record<string, string> = {
    '/x/a.ts': "import type { B } from './b.ts';\nexport type A = B;",
    '/x/b.ts': "export type { A as B } from './a.ts';",
    '/x/c.ts': "import { a } from './a.ts';",
  };
  const found = circles(importGraph(Object.keys(texts), (f) => texts[f]!));
  assert.deepEqual(found, [['/x/a.ts', '/x/b.ts']]);
});
