import { describe, expect, it } from 'vitest';
import { folderCycles, folderGraph, importsByFile } from './import-graph';

describe('the import graph', () => {
  it('has no cycle between folders: each folder can be read knowing only the folders below it', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(30);
    expect(folderCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(folderCycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('writes the change log and pokes only through server/changes (writeTx, Changes)', () => {
    const direct: string[] = [];
    for (const [file, targets] of importsByFile()) {
      if (file.startsWith('server/changes/')) continue;
      if (targets.some((t) => t === 'server/changes/change-log' || t === 'server/changes/pokes')) {
        if (file !== 'server/context.ts' && file !== 'server/deps.ts') direct.push(file);
      }
    }
    expect(direct).toEqual([]);
  });
});
