import type { PublicUser, UsersService } from '../auth/users/users.service.js';
import { ROLES } from '../auth/users/roles.js';

export const USAGE = `Usage:
  npm run cli -- user:create <login> --role <${ROLES.join('|')}> [--email E] [--password P] [--display-name N]
  npm run cli -- user:list [--json]
  npm run cli -- user:delete <login>`;

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string | undefined;
  positional: string[];
  options: Record<string, string | true>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      if (inline !== undefined) options[name] = inline;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[name] = argv[++i];
      else options[name] = true;
    } else positional.push(arg);
  }
  return { command: positional.shift(), positional, options };
}

const str = (v: string | true | undefined) => (typeof v === 'string' ? v : undefined);

/** Runs one command; returns the lines to print on standard output. */
export async function runCommand(args: ParsedArgs, users: UsersService): Promise<string[]> {
  switch (args.command) {
    case 'user:create': {
      const [login] = args.positional;
      const role = str(args.options.role);
      if (!login || !role) throw new UsageError('user:create needs <login> and --role');
      const { user, password } = await users.create({
        login,
        role,
        email: str(args.options.email),
        displayName: str(args.options['display-name']),
        password: str(args.options.password),
      });
      // The application password goes alone on the last line, for scripts to pick up.
      return [
        `Created ${user.role} "${user.login}" (id ${user.id}). Application password:`,
        password,
      ];
    }
    case 'user:list': {
      const list = await users.list();
      if (args.options.json) return [JSON.stringify(list)];
      return list.length ? list.map(formatUser) : ['No users.'];
    }
    case 'user:delete': {
      const [login] = args.positional;
      if (!login) throw new UsageError('user:delete needs <login>');
      if (!(await users.delete(login))) throw new UsageError(`no user with login "${login}"`);
      return [`Deleted user "${login}".`];
    }
    default:
      throw new UsageError(args.command ? `unknown command "${args.command}"` : 'no command given');
  }
}

const formatUser = (u: PublicUser) =>
  `${u.id}\t${u.login}\t${u.role}\t${u.email}\t${u.display_name}`;
