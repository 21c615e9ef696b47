import { useEffect, useState } from 'react';
import { getPeopleRead, peoplePath, type PersonItem, type ReadPage } from '#client/lib/people';
import { useLocalProfile } from '#client/sync/useLocalProfile';

/** Pages of the member's following list read for the @ suggestions at most (20 a page: the newest 100 follows). */
const MAX_PAGES = 5;

async function readFollowing(handle: string): Promise<PersonItem[]> {
  const people: PersonItem[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const path: string = `${peoplePath(handle, 'following')}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
    // A later page that cannot be read (offline, not kept) leaves the ones read so far.
    const page: ReadPage<PersonItem> | null = await getPeopleRead<ReadPage<PersonItem>>(path).catch((e: unknown) => {
      if (i === 0) throw e;
      return null;
    });
    if (!page) break;
    people.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return people;
}

/**
 * The people the member follows, newest follow first, read once `wanted` turns true (the first "@"
 * typed). Offline the service worker answers from the pages it kept (client/lib/people-cache.ts);
 * with none kept, there is nobody to offer and the text stays as typed.
 */
export function useFollowedPeople(wanted: boolean): PersonItem[] {
  const handle = useLocalProfile()?.handle ?? null;
  const [people, setPeople] = useState<{ handle: string; items: PersonItem[] } | null>(null);
  const have = people?.handle === handle;
  useEffect(() => {
    if (!wanted || !handle || have) return;
    let live = true;
    readFollowing(handle).then(
      (items) => live && setPeople({ handle, items }),
      (e: unknown) => console.warn('following list not read', e),
    );
    return () => {
      live = false;
    };
  }, [wanted, handle, have]);
  return have && people ? people.items : [];
}
