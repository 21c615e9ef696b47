import { useEffect, useState } from 'react';

/** A form's state, filled once from the loaded data (later reloads do not overwrite what the admin is typing). */
export function useFormFrom<T, F>(data: T | null, toForm: (data: T) => F) {
  const [form, setForm] = useState<F | null>(null);
  useEffect(() => {
    if (data && form === null) setForm(toForm(data));
  }, [data, form, toForm]);
  return [form, setForm] as const;
}
