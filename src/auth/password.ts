import {
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type BinaryLike,
  type ScryptOptions,
} from 'node:crypto';
import { Turns } from '../common/turns.js';

/**
 * Runs of scrypt at once. Each holds 128 × N × r bytes outside the V8 heap while it runs (16 MB
 * at the production cost), on a thread of libuv's pool: four requests that each brought a
 * credential not yet verified raised a server's resident memory by 4 × 32 MB at the cost before
 * (docs/operations.md, "Memory"). The others wait their turn (0.16 s each).
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

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * The cost of new hashes: OWASP's Password Storage Cheat Sheet counts N=2^14, r=8, p=5 as
 * strong as its minimum (N=2^17, r=8, p=1) and stronger than the N=2^15, r=8, p=1 used before
 * (its equal there is N=2^15 with p=3). A check holds 16 MB instead of 32 while it runs (OpenSSL
 * reuses one N × r block for every p) and takes 0.16 s of one core against 0.10 (measured on the
 * machine of 2026-11-30, Node 24): a worker's peak under `npm run bench` at scale 1 was its reads'
 * plus this check's memory, the first request of the creates' credential (docs/operations.md,
 * "Memory"). Successful checks are remembered (CredentialCache), so a client pays once per five
 * minutes; a hash of another cost is replaced at its next successful check (needsRehash).
 */
const PRODUCTION_PARAMS: ScryptParams = { N: 2 ** 14, r: 8, p: 5 };
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

/** A stored hash's parts, or null when it is not one of ours. */
function parseHash(stored: string): (ScryptParams & { salt: Buffer; hash: Buffer }) | null {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return null;
  return {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, 'base64'),
    hash: Buffer.from(hash, 'base64'),
  };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const { N, r, p, salt, hash: expected } = parsed;
  const key = await scrypt(password, salt, expected.length, { N, r, p, maxmem: maxmem(N, r) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Whether `stored` (a hash that verified) was made at another cost than new hashes are: it is
 * then hashed again from the password just checked, as WordPress does at a login.
 */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  return (
    !parsed ||
    parsed.N !== PARAMS.N ||
    parsed.r !== PARAMS.r ||
    parsed.p !== PARAMS.p ||
    parsed.hash.length !== KEY_LENGTH
  );
}

/** A hash of a random password, verified against when there is no hash to check (constant work). */
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword(randomBytes(18).toString('base64')));

/**
 * The work of a wrong password, for a login that has no hash to check (unknown, or without a
 * console password): timing does not tell it from a known one.
 */
export async function checkDecoy(password: string): Promise<void> {
  await verifyPassword(password, await decoyHash());
}

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
