import { unavailable } from './lib/result';
import type { Benchmark } from './lib/context';

export const liveUpdate: Benchmark = {
  id: 'live',
  title: 'Live update',
  async run() {
    return [unavailable('Live update: like seen in another context, p95', 'ms', '<= 3x and < 100 ms', 'pending: written once the PWA feed lands')];
  },
};
