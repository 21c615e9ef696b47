/**
 * The loading screen, worded as in the product's copy (also used inline while a list loads). The
 * full-screen one shows the app's name above the spinner, as an installed app's splash does; the
 * build paints the same screen from the HTML before any script has run (scripts/build/).
 */
export function Spinner({ label = 'Loading', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'spinner-screen' : 'spinner-inline'} role="status" aria-live="polite">
      {fullScreen ? (
        <span className="splash-brand" aria-hidden="true">
          Vidi
        </span>
      ) : null}
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
