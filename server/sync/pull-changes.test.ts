import { describe, expect, it } from 'vitest';
import { classifyChanges } from './pull-changes';

const row = (entity: string, entity_id: string, video_id: string | null = null, deleted = 0, user_id: string | null = null) => ({
  entity,
  entity_id,
  video_id,
  user_id,
  deleted,
});

describe('classifyChanges', () => {
  it('folds videos, likes and renames into id sets; a like re-reads its video', () => {
    const sets = classifyChanges([row('video', 'v1'), row('video', 'v2', null, 1), row('like', 'l1', 'v3'), row('profile', 'u1')], [], new Set());
    expect(sets.count).toBe(4);
    expect([...sets.changedVideos]).toEqual(['v1', 'v3']);
    expect([...sets.deletedVideos]).toEqual(['v2']);
    expect([...sets.renamedUsers]).toEqual(['u1']);
  });

  it('follows comments only on open videos whose list is not sent whole', () => {
    const changes = [row('comment', 'c1', 'open'), row('comment', 'c2', 'open', 1), row('comment', 'c3', 'closed'), row('comment', 'c4', 'loaded')];
    const sets = classifyChanges(changes, ['open', 'loaded'], new Set(['loaded']));
    expect([...sets.changedVideos]).toEqual(['open', 'closed', 'loaded']);
    expect([...sets.changedComments]).toEqual(['c1']);
    expect([...sets.deletedComments]).toEqual(['c2']);
  });

  it('groups own rows (notifications, follows) by entity and member, so a reader reads only its own', () => {
    const sets = classifyChanges(
      [
        row('notification', 'n1', null, 0, 'ann'),
        row('notification', 'n2', null, 0, 'bob'),
        row('notification', 'n3', null, 0, 'ann'),
        row('follow', 'ann:bob', null, 1, 'ann'),
        row('account', 'bob', null, 0, 'bob'),
      ],
      [],
      new Set(),
    );
    expect(sets.own.get('notification')).toEqual(
      new Map([
        ['ann', new Set(['n1', 'n3'])],
        ['bob', new Set(['n2'])],
      ]),
    );
    expect(sets.own.get('follow')).toEqual(new Map([['ann', new Set(['ann:bob'])]]));
    // An account change (a follower count) is the member's own profile, not a rename of their cards.
    expect([...sets.accounts]).toEqual(['bob']);
    expect(sets.renamedUsers.size).toBe(0);
  });
});
