import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { AdSlot } from '#client/ui/ads/AdSlot';

/** The frame shared by /login and /signup: brand, title, the form, and the ad slot (docs/pwa.md, "Ads"). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <Link to="/" className="brand auth-brand">
          Vidi
        </Link>
        <h1>{title}</h1>
        <p className="muted">{subtitle}</p>
        {children}
      </div>
      <AdSlot placement="auth" />
    </main>
  );
}
