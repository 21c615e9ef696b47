import type { ReactNode } from 'react';
import { AdSlot } from '#client/ui/ads/AdSlot';
import { CardPage } from '#client/ui/CardPage';

/** The frame shared by /login and /signup: brand, title, the form, and the ad slot (docs/pwa.md, "Ads"). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <CardPage title={title} subtitle={subtitle} after={<AdSlot placement="auth" />}>
      {children}
    </CardPage>
  );
}
