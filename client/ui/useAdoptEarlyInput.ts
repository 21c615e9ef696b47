import { useLayoutEffect, useRef } from 'react';

/**
 * A prerendered field can be typed in (or autofilled) before React adopts the page; React 19
 * keeps that text on screen but its state still holds the prerendered value, so the form would
 * submit empty fields the member can see filled. On adoption, the field's text becomes its value.
 */
export function useAdoptEarlyInput(value: string, onChange: (value: string) => void) {
  const ref = useRef<HTMLInputElement>(null);
  const first = useRef({ value, onChange });
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== first.current.value) first.current.onChange(typed);
  }, []);
  return ref;
}
