import { useEffect, useState } from 'react';

/** Waits until typing pauses before searching, so a large table is not queried per keystroke. */
export function useDebounced(value: string, ms: number): string {
  const [out, setOut] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setOut(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return out;
}
