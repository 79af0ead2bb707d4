/*
 * The rules of chosen passwords, which the configuration (ADMIN_PASSWORD) checks as the CLI
 * and the users service do.
 */

/** WordPress strips the spaces of an application password before checking it. */
export const normalizeApplicationPassword = (password: string) => password.replace(/\s+/g, '');

/**
 * The shortest password a person may choose (`ADMIN_PASSWORD`, the CLI's `--password`).
 * Generated application passwords have 24 random characters; a chosen one needs at least this
 * many to resist offline guessing should the hashes ever leak.
 */
export const MIN_PASSWORD_LENGTH = 12;

/** Length in characters (code points) of a password as it is checked, i.e. without its spaces. */
export const passwordLength = (password: string) =>
  [...normalizeApplicationPassword(password)].length;
