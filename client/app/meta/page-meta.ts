/**
 * The title and description of each page: written into the prerendered HTML at build time
 * (scripts/build/prerender-plugin.ts) and set on every client-side navigation (usePageMeta.ts),
 * so a shared link, a search result and the tab all name the page the visitor is on.
 */
export interface PageMeta {
  title: string;
  description: string;
}

const DEFAULT_DESCRIPTION = 'Share short videos of up to 2 minutes, like, comment and win rewards on Vidi.';

const PAGES: Record<string, PageMeta> = {
  '/': { title: 'Vidi: share short videos, like, comment and win rewards', description: DEFAULT_DESCRIPTION },
  '/login': { title: 'Sign In · Vidi', description: 'Sign in to Vidi to watch, like and comment on short videos and climb the reward leaderboards.' },
  '/signup': { title: 'Create Account · Vidi', description: 'Join Vidi to share short videos of up to 2 minutes and compete for real rupee prizes.' },
  '/forgot-password': { title: 'Forgot Password · Vidi', description: 'Get a link by e-mail to reset your Vidi password.' },
  '/reset-password': { title: 'Reset Password · Vidi', description: 'Choose a new password for your Vidi account.' },
  '/admin/login': { title: 'Admin Login · Vidi', description: 'Sign in with a Vidi administrator account.' },
  '/admin': { title: 'Admin Dashboard · Vidi', description: DEFAULT_DESCRIPTION },
  '/home': { title: 'Home · Vidi', description: DEFAULT_DESCRIPTION },
  '/rewards': { title: 'Rewards · Vidi', description: 'The Vidi reward leaderboards and prizes.' },
  '/profile': { title: 'Profile · Vidi', description: DEFAULT_DESCRIPTION },
  '/search': { title: 'Search · Vidi', description: 'Find people, videos and hashtags on Vidi.' },
  '/payment': { title: 'Entry Fee · Vidi', description: 'Pay the Vidi entry fee to finish signing up.' },
};

/** The shell's own, for the routes that are not prerendered (each sets its own once it renders). */
export const SHELL_META: PageMeta = { title: 'Vidi', description: DEFAULT_DESCRIPTION };

const NOT_FOUND: PageMeta = { title: 'Page not found · Vidi', description: DEFAULT_DESCRIPTION };

/** A trailing slash names the same page (the server answers `/login/` as `/login`). */
export function pageMetaFor(pathname: string): PageMeta {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGES[path] ?? creatorMeta(path) ?? tagMeta(path) ?? NOT_FOUND;
}

/** A creator's page, /@handle: named by the handle (the page has the name once it has read it). */
function creatorMeta(path: string): PageMeta | null {
  const m = /^\/@([^/]+)$/.exec(path);
  if (!m) return null;
  let handle = m[1]!.toLowerCase();
  try {
    handle = decodeURIComponent(handle);
  } catch {
    // A stray % in a typed address: the handle as typed.
  }
  return { title: `@${handle} · Vidi`, description: `@${handle}'s short videos on Vidi.` };
}

/** A hashtag's page, /tag/{tag}. */
function tagMeta(path: string): PageMeta | null {
  const m = /^\/tag\/([^/]+)$/.exec(path);
  if (!m) return null;
  let tag = m[1]!;
  try {
    tag = decodeURIComponent(tag);
  } catch {
    // A stray % in a typed address: the tag as typed.
  }
  return { title: `#${tag} · Vidi`, description: `Short videos tagged #${tag} on Vidi.` };
}
