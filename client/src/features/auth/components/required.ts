/** Every login and register field is required. Returns an error per empty field. */
export function missingFields<K extends string>(
  values: Record<K, string>,
  labels: Record<K, string>,
): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const key of Object.keys(labels) as K[]) {
    if (values[key].trim() === '') errors[key] = `${labels[key]} is required`;
  }
  return errors;
}
