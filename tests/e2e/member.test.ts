import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { lastMailTo } from '../helpers/mail-sink';
import { mp4Faststart } from '../fixtures/videos';
import { pwaTest } from './fixtures';
import { PASSWORD, uniqueEmail } from './member-session';
import { toastText } from './toasts';

/** The toast region holds one toast at a time (the product's toast rules, client/ui/toaster-entry.tsx); wait for a text in it. */
// The file walks one visitor's page from the landing page to member and back: made once per file,
// with every console error and warning on the way noted for the last test.
const test = pwaTest().extend('visitor', { scope: 'file' }, async ({ browser }, { onCleanup }) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  onCleanup(() => context.close());
  // Linux Chromium has no share sheet anyway; make sure the copy-link path is the one taken.
  await context.addInitScript(() => {
    Reflect.deleteProperty(Navigator.prototype, 'share');
    Reflect.deleteProperty(Navigator.prototype, 'canShare');
  });
  const page = await context.newPage();
  const consoleProblems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleProblems.push(`${m.type()}: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => consoleProblems.push(`pageerror: ${e.message}`));
  return { context, page, consoleProblems };
});

describe.skipIf(!hasChromium)("a visitor's path to member and back", () => {
  const email = uniqueEmail('member');
  const title = 'My first clip';
  let deletedMedia: string[] = [];
  let problemsBeforeDelete = Number.POSITIVE_INFINITY;

  test('signs up from the landing page with the validation toasts of the spec', async ({ server, visitor: { page } }) => {
    await page.goto(server.url + '/');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/signup');
    await page.getByLabel('Full Name').fill('Asha Member');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('abc12');
    await page.getByLabel('Confirm Password', { exact: true }).fill('abc13');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toastText(page, 'Password mismatch');
    await page.getByText('Passwords do not match').waitFor();

    await page.getByLabel('Confirm Password', { exact: true }).fill('abc12');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toastText(page, 'Weak password');
    await page.getByText('Password must be at least 6 characters long').waitFor();

    // The toggle shows the password as text.
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    const signups: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/signup')) signups.push(r.method());
    });
    await page.getByRole('button', { name: 'Create Account' }).dblclick();
    await toastText(page, 'Account created!');
    await page.getByText('Please check your email to verify your account.').waitFor();
    await page.waitForURL('**/login');
    expect(signups).toEqual(['POST']);
  });

  test('verifies the e-mail through the mailed link and signs in (one request for a double click)', async ({ server, visitor: { page } }) => {
    const link = lastMailTo(server.dataDir, email).links.find((l) => l.includes('/api/auth/verify?token='));
    expect(link).toBeDefined();
    // The link redirects to PUBLIC_URL's /login?verified=1; the test server's PUBLIC_URL has no real port
    // (it listens on a free one), so follow the redirect by hand to the same path.
    const { pathname, search } = new URL(link!);
    const verified = await fetch(server.url + pathname + search, { redirect: 'manual' });
    const target = new URL(verified.headers.get('location') ?? '', server.url);
    expect(target.pathname + target.search).toBe('/login?verified=1');
    await page.goto(server.url + target.pathname + target.search);
    await page.getByText('Your email is verified. You can sign in now.').waitFor();
    await page.getByText('Welcome back! Sign in to your account').waitFor();

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const logins: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/login')) logins.push(r.method());
    });
    await page.getByRole('button', { name: 'Sign In' }).dblclick();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Asha Member!' }).waitFor();
    expect(logins).toEqual(['POST']);
  });

  test('shows the empty feed, then uploads a video that appears as a card', async ({ visitor: { page } }) => {
    await page.getByRole('heading', { name: 'No videos yet' }).waitFor();
    await page.getByRole('button', { name: 'Upload First Video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel(/Description/).fill('Filmed on a test pattern');
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(await mp4Faststart());
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastText(page, 'Video uploaded!');
    const card = page.getByRole('article', { name: title });
    await card.waitFor();
    await card.getByText('Filmed on a test pattern').waitFor();
    await card.getByText('Asha Member').waitFor();
    // Once the server has it the card has no pending mark; once processed, no progress and a server poster.
    await expect.poll(() => card.getByText('Pending').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => card.getByText(/^Processing/).count(), { timeout: 90_000 }).toBe(0);
    await expect.poll(() => card.locator('video').getAttribute('poster'), { timeout: 30_000 }).toMatch(/^\/media\//);
    await saveScreenshot(page, 'member-feed-with-video');
  });

  test('likes, comments and copies the share link', async ({ server, visitor: { page } }) => {
    const card = page.getByRole('article', { name: title });
    const like = card.getByRole('button', { name: /^Like/ });
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => like.getAttribute('aria-label')).toBe('Like, 1 like');

    await card.getByRole('button', { name: /^Comments/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Comments' });
    await dialog.getByText('No comments yet. Be the first to comment!').waitFor();
    const box = dialog.getByRole('textbox', { name: 'Add a comment' });
    expect(await box.getAttribute('placeholder')).toBe('Add a comment...');
    await box.fill('   ');
    await box.press('Enter');
    await box.fill('Lovely colours');
    await box.press('Enter');
    await dialog.getByText('Lovely colours').waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);
    await dialog.getByText('Asha Member').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the button that opened the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(/^Comments, 1 comment/);

    await card.getByRole('button', { name: /^Share/ }).click();
    await toastText(page, 'Link Copied!');
    await page.getByText('Video link copied to clipboard.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(new RegExp(`^${server.url}/home#video-[0-9a-f-]{36}$`));
    await expect.poll(() => card.getByRole('button', { name: /^Share/ }).getAttribute('aria-label')).toBe('Share, 1 share');
  });

  test('changes the profile name', async ({ visitor: { page } }) => {
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByText('Email address cannot be changed.').waitFor();
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);
    const nameField = page.getByLabel('Full Name');
    expect(await nameField.inputValue()).toBe('Asha Member');
    await nameField.fill('Asha Renamed');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastText(page, 'Profile Updated');
    await page.getByText('Your profile has been successfully updated.').waitFor();
    // F8 moves keyboard focus into the toast region (the product's toast rules, client/ui/toaster-entry.tsx).
    await page.keyboard.press('F8');
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('section[aria-label^="Notifications"]'))).toBe(true);
    await page.getByRole('link', { name: 'Vidi' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome, Asha Renamed!' }).waitFor();
  });

  test('opens the rewards page', async ({ visitor: { page } }) => {
    await page.getByRole('link', { name: 'Rewards' }).click();
    await page.waitForURL('**/rewards');
    await page.getByRole('heading', { level: 1, name: 'Rewards' }).waitFor();
    await saveScreenshot(page, 'member-rewards');
  });

  test('deletes the own video after the confirmation and signs out', async ({ server, visitor: { page, consoleProblems } }) => {
    await page.getByRole('link', { name: 'Vidi' }).click();
    const card = page.getByRole('article', { name: title });
    let question = '';
    page.once('dialog', (d) => {
      question = d.message();
      void d.accept();
    });
    // Every file of the video (poster, playlists, segments) lives under a path naming its id.
    deletedMedia = [(await card.getAttribute('id'))!.replace(/^video-/, '')];
    problemsBeforeDelete = consoleProblems.length;
    await card.getByRole('button', { name: `Delete video ${title}` }).click();
    await toastText(page, 'Video Deleted');
    expect(question).toBe('Are you sure you want to delete this video? This action cannot be undone.');
    await page.getByRole('heading', { name: 'No videos yet' }).waitFor();

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await page.waitForURL('**/login');
    await page.goto(server.url + '/home');
    await page.waitForURL('**/login');
  });

  test('logged no errors or warnings on the way', async ({ visitor: { consoleProblems } }) => {
    // The one expected exception: a poster, playlist or segment request of the just-deleted video that was still
    // in flight when the server removed its files answers 404 (docs/uploads.md, "Media delivery": deleted files answer 404).
    const racedDeletion = (line: string, i: number) =>
      i >= problemsBeforeDelete && line.includes('status of 404') && deletedMedia.some((u) => line.includes(u));
    expect(consoleProblems.filter((line, i) => !racedDeletion(line, i))).toEqual([]);
  });
});
