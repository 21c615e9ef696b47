/** What shows that the member is about to act: a finger or a pointer down, a key. */
const INPUT_EVENTS = ['pointerdown', 'touchstart', 'keydown'] as const;

/**
 * Runs `run` at the member's first input on this page (once), to get ready what a tap will need
 * while the tap is still under way. Returns a cancel function.
 */
export function onFirstInput(run: () => void): () => void {
  const fire = () => {
    cancel();
    run();
  };
  const cancel = () => {
    for (const type of INPUT_EVENTS) window.removeEventListener(type, fire, { capture: true });
  };
  for (const type of INPUT_EVENTS) window.addEventListener(type, fire, { capture: true, passive: true });
  return cancel;
}
