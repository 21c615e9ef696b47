import { describe, expect, it } from 'vitest';
import { safetyList, safetyListRow, UNKNOWN_MEMBER } from './safety-rows';

describe('the rows of Blocked accounts and Muted accounts', () => {
  it("shows the other member's name and @handle when the row carries them, else a neutral placeholder", () => {
    expect(safetyListRow({ blocker_id: 'me', blocked_id: 'b1', created_at: 1, name: 'Asha', handle: 'asha' }, 'blocked')).toEqual({
      userId: 'b1',
      label: 'Asha',
      handle: '@asha',
      createdAt: 1,
    });
    expect(safetyListRow({ muter_id: 'me', muted_id: 'm1', created_at: 2, handle: 'ravi', name: ' ' }, 'muted')).toMatchObject({
      label: '@ravi',
      handle: '@ravi',
    });
    expect(safetyListRow({ blocker_id: 'me', blocked_id: 'b2', created_at: 3 }, 'blocked')).toMatchObject({
      userId: 'b2',
      label: UNKNOWN_MEMBER,
      handle: null,
    });
  });

  it('lists the newest first', () => {
    const rows = [
      { muted_id: 'a', created_at: 1 },
      { muted_id: 'b', created_at: 3 },
      { muted_id: 'c', created_at: 2 },
    ];
    expect(safetyList(rows, 'muted').map((r) => r.userId)).toEqual(['b', 'c', 'a']);
  });
});
