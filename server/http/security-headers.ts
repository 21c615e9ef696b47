import { secureHeaders } from 'hono/secure-headers';

// The Razorpay Checkout script and the ad service are the only third parties the app loads
// (issue 6 and spec section 1); everything else is same-origin.
const RAZORPAY = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];
const ADS = ['https://pagead2.googlesyndication.com', 'https://googleads.g.doubleclick.net', 'https://tpc.googlesyndication.com'];

export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...RAZORPAY, ...ADS],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...ADS],
    mediaSrc: ["'self'", 'blob:'],
    connectSrc: ["'self'", ...RAZORPAY, ...ADS],
    frameSrc: [...RAZORPAY, ...ADS],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: 'DENY',
  xContentTypeOptions: 'nosniff',
  referrerPolicy: 'strict-origin-when-cross-origin',
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin-allow-popups',
});
