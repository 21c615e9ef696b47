import { unavailable } from './lib/result';
import type { Benchmark } from './lib/context';

export const browserOffline: Benchmark = {
  id: 'offline',
  title: 'Offline first card',
  async run() {
    return [unavailable('Browser: offline first video card, 300 cached', 'ms', '<= 1.5x', 'pending: written once the PWA feed lands')];
  },
};
