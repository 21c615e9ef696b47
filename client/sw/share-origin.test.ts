import { describe, expect, it } from 'vitest';
import { isOwnOrSystemShare, type ShareSource } from './share-origin';

const OWN = 'https://vidi.example';
const ownWindow = 'own-window';
const findOwnClient = (id: string) => Promise.resolve(id === ownWindow ? { id } : undefined);
const check = (src: Partial<ShareSource>) => isOwnOrSystemShare({ secFetchSite: null, origin: null, clientId: '', ...src }, OWN, findOwnClient);

describe('isOwnOrSystemShare', () => {
  it('follows Sec-Fetch-Site when the worker sees it: none and same-origin only', async () => {
    expect(await check({ secFetchSite: 'none', origin: 'null' })).toBe(true);
    expect(await check({ secFetchSite: 'same-origin', origin: OWN, clientId: 'x' })).toBe(true);
    expect(await check({ secFetchSite: 'same-site', origin: 'https://other.vidi.example', clientId: ownWindow })).toBe(false);
    expect(await check({ secFetchSite: 'cross-site', origin: OWN, clientId: ownWindow })).toBe(false);
  });

  it('takes a navigation no document started (the OS share sheet) as none', async () => {
    expect(await check({ origin: null })).toBe(true);
    expect(await check({ origin: 'null' })).toBe(true);
  });

  it('takes a window of this origin as same-origin', async () => {
    expect(await check({ origin: OWN, clientId: ownWindow })).toBe(true);
  });

  it("refuses another site's form, with or without its Origin", async () => {
    expect(await check({ origin: 'https://evil.example', clientId: 'evil-window' })).toBe(false);
    expect(await check({ origin: 'null', clientId: 'evil-window' })).toBe(false);
    expect(await check({ origin: 'https://evil.example' })).toBe(false);
    expect(await check({ origin: 'https://evil.example', clientId: ownWindow })).toBe(false);
  });

  it('refuses when the client lookup fails', async () => {
    expect(await isOwnOrSystemShare({ secFetchSite: null, origin: OWN, clientId: 'x' }, OWN, () => Promise.reject(new Error('gone')))).toBe(false);
  });
});
