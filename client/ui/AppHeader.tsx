import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';

/** The skip link and the top bar: the brand, a navigation named `navLabel`, and what sits under it (a status banner). */
export function AppHeader({ navLabel, children, below }: { navLabel: string; children: ReactNode; below?: ReactNode }) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <div className="header-inner">
          <Link to="/home" className="brand">
            Vidi
          </Link>
          <nav aria-label={navLabel} className="header-nav">
            {children}
          </nav>
        </div>
        {below}
      </header>
    </>
  );
}
