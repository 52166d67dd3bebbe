/**
 * Combining ID sources without materialising them: the union of several (a search word found in
 * contents or in topic names), the intersection of several (a narrow's terms, each with its own
 * index), and walks outward from a point. Each step is a few binary searches, so a window of 50
 * costs the same over a list of a hundred IDs or of a million.
 */
import { emptyIds, type IdSource, search } from './id-list.js';

class Union implements IdSource {
  readonly size: number;

  constructor(private readonly parts: readonly IdSource[]) {
    this.size = parts.reduce((total, part) => total + part.size, 0);
  }

  atMost(id: number): number | undefined {
    let best: number | undefined;
    for (const part of this.parts) {
      const found = part.atMost(id);
      if (found !== undefined && (best === undefined || found > best)) best = found;
    }
    return best;
  }

  atLeast(id: number): number | undefined {
    let best: number | undefined;
    for (const part of this.parts) {
      const found = part.atLeast(id);
      if (found !== undefined && (best === undefined || found < best)) best = found;
    }
    return best;
  }
}

/** Leapfrog intersection: each part in turn is sought to the point the others reached, until all agree. */
class Intersection implements IdSource {
  readonly size: number;

  constructor(private readonly parts: readonly IdSource[]) {
    this.size = Math.min(...parts.map((part) => part.size));
  }

  private agree(start: number, seek: (part: IdSource, id: number) => number | undefined): number | undefined {
    let candidate: number | undefined = start;
    let agreeing = 0;
    for (let i = 0; agreeing < this.parts.length; i = (i + 1) % this.parts.length) {
      const found = seek(this.parts[i] as IdSource, candidate);
      if (found === undefined) return undefined;
      if (found === candidate) agreeing++;
      else (candidate = found), (agreeing = 1);
    }
    return candidate;
  }

  atMost(id: number): number | undefined {
    return this.agree(id, (part, at) => part.atMost(at));
  }

  atLeast(id: number): number | undefined {
    return this.agree(id, (part, at) => part.atLeast(at));
  }
}

/** The IDs in any of `parts`. */
export function unionOf(parts: readonly IdSource[]): IdSource {
  const nonEmpty = parts.filter((part) => part.size > 0);
  if (nonEmpty.length === 0) return emptyIds();
  return nonEmpty.length === 1 ? (nonEmpty[0] as IdSource) : new Union(nonEmpty);
}

/** The IDs in every one of `parts` (smallest first, so that it leads the search). */
export function intersectionOf(parts: readonly IdSource[]): IdSource {
  if (parts.length === 0) throw new Error('an intersection needs at least one source');
  const sorted = [...parts].sort((a, b) => a.size - b.size);
  if ((sorted[0] as IdSource).size === 0) return emptyIds();
  return sorted.length === 1 ? (sorted[0] as IdSource) : new Intersection(sorted);
}

/** A fixed, ascending list of IDs as a source. */
export function idsOf(ids: readonly number[]): IdSource {
  return {
    size: ids.length,
    atMost: (id) => {
      const at = search(ids, ids.length, id, false);
      return at > 0 ? ids[at - 1] : undefined;
    },
    atLeast: (id) => ids[search(ids, ids.length, id, true)],
  };
}

/**
 * The IDs of `source` from `max` downwards that `accept` keeps, until `limit` are found (every
 * one when `limit` is 0); ascending.
 */
export function lastAccepted(source: IdSource, max: number, limit: number, accept: (id: number) => boolean): number[] {
  const found: number[] = [];
  for (let id = source.atMost(max); id !== undefined && (limit === 0 || found.length < limit); id = source.atMost(id - 1)) {
    if (accept(id)) found.push(id);
  }
  return found.reverse();
}

/** The first `limit` IDs of `source` from `min` upwards that `accept` keeps, ascending. */
export function firstAccepted(source: IdSource, min: number, limit: number, accept: (id: number) => boolean): number[] {
  const found: number[] = [];
  for (let id = source.atLeast(min); id !== undefined && found.length < limit; id = source.atLeast(id + 1)) {
    if (accept(id)) found.push(id);
  }
  return found;
}

/** The IDs of `source` from `min` upwards, ascending. */
export function* ascending(source: IdSource, min = 0): IterableIterator<number> {
  for (let id = source.atLeast(min); id !== undefined; id = source.atLeast(id + 1)) yield id;
}
