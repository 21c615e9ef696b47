import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';

/** A page that is one centred card: the brand, a title, an optional subtitle, the content, and what follows the card. */
export function CardPage(props: { title: ReactNode; subtitle?: string; cardClass?: string; after?: ReactNode; children: ReactNode }) {
  return (
    <main className="auth-page" id="main">
      <div className={props.cardClass ? `auth-card ${props.cardClass}` : 'auth-card'}>
        <Link to="/" className="brand auth-brand">
          Vidi
        </Link>
        <h1>{props.title}</h1>
        {props.subtitle ? <p className="muted">{props.subtitle}</p> : null}
        {props.children}
      </div>
      {props.after}
    </main>
  );
}

/** The line under a card's form that leads elsewhere ("Already have an account? Sign in"). */
export function SwitchLink({ prompt, to, children }: { prompt?: string; to: NonNullable<LinkProps['to']>; children: ReactNode }) {
  return (
    <p className="switch">
      {prompt ? `${prompt} ` : null}
      <Link to={to}>{children}</Link>
    </p>
  );
}
