import {
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type BinaryLike,
  type ScryptOptions,
} from 'node:crypto';
import { Turns } from '../common/turns.js';

/**
 * Runs of scrypt at once. Each holds 128 × N × r bytes outside the V8 heap while it runs (32 MB
 * at the production cost), on a thread of libuv's pool: four requests that each brought a
 * credential not yet verified raised a server's resident memory by 120 MB (docs/operations.md,
 * "Memory"). The others wait their turn (0.1 s each).
 */
const turns = new Turns(2);

function scrypt(
  password: BinaryLike,
  salt: BinaryLike,
  keylen: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return turns.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

// N=2^15 costs ~0.1 s here; successful verifications are cached (CredentialCache), so only the
// first request with a credential pays it. maxmem must be raised above Node's 32 MiB default.
const PRODUCTION_PARAMS = { N: 2 ** 15, r: 8, p: 1 };
let PARAMS = PRODUCTION_PARAMS;

/**
 * Lowers the hashing cost for the test suite only (its setup file calls it), where hundreds of
 * users are created; the program itself never calls it and has no setting for it. Hashes keep
 * their parameters, so either kind verifies whatever the current cost.
 */
export function useCheapHashingForTests(cheap = true): void {
  PARAMS = cheap ? { N: 2 ** 10, r: 8, p: 1 } : PRODUCTION_PARAMS;
}
const KEY_LENGTH = 32;
const maxmem = (N: number, r: number) => 256 * N * r + 16 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash` (base64), parameters stored with the hash so they can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, {
    ...PARAMS,
    maxmem: maxmem(PARAMS.N, PARAMS.r),
  });
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const N = Number(n);
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(N, Number(r)),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password, verified against when the login is unknown (constant work). */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(18).toString('base64')));

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** `length` characters from [A-Za-z0-9] (256 is a multiple of 64, ... close enough: 62 letters). */
const randomText = (length: number) =>
  Array.from(randomBytes(length), (b) => ALPHABET[b % ALPHABET.length]).join('');

/** WordPress application passwords: 24 characters from [A-Za-z0-9], shown in groups of four. */
export function generateApplicationPassword(): string {
  return randomText(24).replace(/(.{4})(?=.)/g, '$1 ');
}

/** A console password given by the CLI when none is chosen: 20 characters, no spaces. */
export const generateLoginPassword = (): string => randomText(20);

export {
  MIN_PASSWORD_LENGTH,
  normalizeApplicationPassword,
  passwordLength,
} from '../config/passwords.js';
