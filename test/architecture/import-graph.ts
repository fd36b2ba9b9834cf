// The project's import graph (every relative import, type-only ones included) and the checks run over it.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import glob from 'fast-glob';
import ts from 'typescript';

/** File (project-relative, forward slashes) → the project files it imports, in source order. */
export type ImportGraph = Map<string, string[]>;

/** A rule over edges: an import that `forbids` is reported under `name`, unless listed as an exception. */
export interface DependencyRule {
  name: string;
  /** Whether the edge from → to breaks this rule. */
  forbids(from: string, to: string): boolean;
}

/** One import the rules allow although it breaks them; `reason` says why and until when. */
export interface AllowedEdge {
  from: string;
  to: string;
  reason: string;
}

/**
 * Reads every .ts file under `folders` (relative to `root`) and resolves its relative imports.
 * Bare specifiers (node built-ins, npm packages) are left out: the rules are about our files.
 * An import of a file that does not exist is kept as an edge, so a rule or a reader can see it.
 *
 * @example importGraph(process.cwd(), ['build', 'src', 'scripts']).get('src/app.ts')
 */
export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  const files = glob
    .sync(
      folders.map((folder) => `${folder}/**/*.ts`),
      { cwd: root },
    )
    .sort();
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, from), 'utf8'), true, false);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
      .map((specifier) => posix.normalize(posix.join(posix.dirname(from), specifier)));
    graph.set(from, targets);
  }
  return graph;
}

/** Every edge that breaks a rule and is not allowed, as "rule: from → to". */
export function ruleViolations(graph: ImportGraph, rules: readonly DependencyRule[], allowed: readonly AllowedEdge[] = []): string[] {
  const violations: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (allowed.some((edge) => edge.from === from && edge.to === to)) continue;
      for (const rule of rules) {
        if (rule.forbids(from, to)) violations.push(`${rule.name}: ${from} → ${to}`);
      }
    }
  }
  return violations;
}

/** Imports of project files that do not exist (a path typo, or a file moved without its importers). */
export function missingTargets(root: string, graph: ImportGraph): string[] {
  const missing: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) if (!existsSync(join(root, to))) missing.push(`${from} → ${to}`);
  }
  return missing;
}

/** Files that import one another in a ring: all of them, and one closed path through them. */
export interface ImportCycle {
  /** Every file of the strongly connected component, sorted. */
  files: string[];
  /** A shortest closed path from the first file back to it: ["a.ts", "b.ts", "a.ts"]. */
  path: string[];
}

/** The import cycles: one per strongly connected component of more than one file, or a file importing itself. */
export function importCycles(graph: ImportGraph): ImportCycle[] {
  return stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1 || (graph.get(component[0]) ?? []).includes(component[0]))
    .map((component) => {
      const files = [...component].sort();
      return { files, path: cycleThrough(graph, new Set(files), files[0]) };
    });
}

/** Tarjan's algorithm, iterative so a deep graph cannot overflow the stack. */
function stronglyConnectedComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    lowLink.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = (graph.get(frame.node) ?? []).filter((target) => graph.has(target));
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          lowLink.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** A shortest closed path from `start` back to itself inside one component (breadth first). */
function cycleThrough(graph: ImportGraph, component: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
