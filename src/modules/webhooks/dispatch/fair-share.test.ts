import { describe, expect, it } from 'vitest';
import { atShare, pickFairly, type Candidate } from './fair-share.js';

const due = (spec: string): Candidate[] =>
  spec.split(' ').map((item, index) => ({ id: `${item}#${index}`, workspace_id: item[0]!, endpoint_id: item }));
const idle = { workspaces: new Map<string, number>(), endpoints: new Map<string, number>() };

describe('fair shares of the dispatcher', () => {
  it('takes turns between workspaces, oldest first, within each share', () => {
    // Workspace a's backlog is older than b's and c's; each still gets its turn at once.
    const picked = pickFairly(due('a1 a1 a2 a3 a1 b1 c1 b1'), 6, idle, { perWorkspace: 2, perEndpoint: 1 });
    expect(picked).toEqual(['a1#0', 'b1#5', 'c1#6', 'a2#2']);
  });

  it('counts what is under way, and names the workspaces and endpoints that hold their whole share', () => {
    const load = { workspaces: new Map([['a', 1]]), endpoints: new Map([['a1', 1]]) };
    const shares = { perWorkspace: 2, perEndpoint: 1 };
    expect(pickFairly(due('a1 a2 a3 b1'), 4, load, shares)).toEqual(['a2#1', 'b1#3']);
    expect(
      atShare(
        {
          workspaces: new Map([['a', 2]]),
          endpoints: new Map([
            ['a1', 1],
            ['b1', 0],
          ]),
        },
        shares,
      ),
    ).toEqual({
      workspaces: ['a'],
      endpoints: ['a1'],
    });
  });

  it('stops at the free slots', () => {
    expect(pickFairly(due('a1 b1 c1'), 2, idle, { perWorkspace: 4, perEndpoint: 2 })).toHaveLength(2);
  });
});
