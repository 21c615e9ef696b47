import * as z from 'zod';

/** Ids are client-made UUIDs or server ids: short, URL-safe. */
export const IdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id.');
