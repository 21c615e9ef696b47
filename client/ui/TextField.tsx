import { useId, type InputHTMLAttributes } from 'react';
import { useAdoptEarlyInput } from './useAdoptEarlyInput';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string;
}

export function TextField({ label, value, onChange, hint, ...rest }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const ref = useAdoptEarlyInput(value, onChange);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input ref={ref} id={id} value={value} onChange={(e) => onChange(e.target.value)} {...(hint ? { 'aria-describedby': hintId } : {})} {...rest} />
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
