import type { ReactNode } from 'react';
import { AdSlot } from '#client/ui/ads/AdSlot';
import { CardPage } from '#client/ui/CardPage';

/**
 * The frame of the auth pages: brand, title, the form, and on /login and /signup (where the product
 * places ads) the ad slot (docs/pwa.md, "Ads"). Off by default: a page whose address or form
 * carries a secret (the reset link) must never run the ad service's script.
 */
export function AuthCard({ title, subtitle, withAd = false, children }: { title: string; subtitle: string; withAd?: boolean; children: ReactNode }) {
  return (
    <CardPage title={title} subtitle={subtitle} after={withAd ? <AdSlot placement="auth" /> : undefined}>
      {children}
    </CardPage>
  );
}
