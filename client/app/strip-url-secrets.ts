import { moveResetTokenOutOfAddress } from '../lib/reset-token';

// Imported first by main.tsx, so it runs before any other module of the app (and long before any
// third-party script) could read the address (docs/pwa.md, "Secrets in the address").
moveResetTokenOutOfAddress();
