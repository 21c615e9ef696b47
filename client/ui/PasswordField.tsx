import { useId, useState } from 'react';
import { EyeIcon, EyeOffIcon } from './icons';
import { useAdoptEarlyInput } from './useAdoptEarlyInput';

interface Props {
  label: string;
  value: string;
  onChange(value: string): void;
  autoComplete: 'current-password' | 'new-password';
  name: string;
}

/** A password input with the show/hide toggle of the product's copy. */
export function PasswordField({ label, value, onChange, autoComplete, name }: Props) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const ref = useAdoptEarlyInput(value, onChange);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-wrap">
        <input
          ref={ref}
          id={id}
          name={name}
          type={shown ? 'text' : 'password'}
          required
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="icon-button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={shown}
        >
          {shown ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
    </div>
  );
}
