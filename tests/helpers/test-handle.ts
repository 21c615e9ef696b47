import { numberedHandle } from '#sync/protocol/handles';

/**
 * A handle for a member a test inserts by hand (sign-up picks one from the name: server/people/free-handle.ts):
 * unique for a unique id, and valid (starts with a letter, within 30 characters).
 */
export function testHandle(id: string): string {
  return numberedHandle(`m${id.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 30), 1);
}
