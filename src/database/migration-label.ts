/** `InitialSchema1763800000000` → `1763800000000-initial-schema`, as the file is named. */
export function migrationLabel(name: string): string {
  const match = /^(.*?)(\d{13})$/.exec(name);
  if (!match) return name;
  const words = match[1].replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return `${match[2]}-${words}`;
}
