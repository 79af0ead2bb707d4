import { LocalizedError, type Message } from './messages.js';

/**
 * A configuration value that cannot be used: the variable and why (a `config.*` message). Its
 * `message` is the English line; the programs print it in the operator's language (LC_ALL,
 * LC_MESSAGES, LANG) with `errorText`, and exit.
 */
export class ConfigError extends LocalizedError {
  constructor(
    readonly variable: string,
    readonly reason: Message,
  ) {
    super('config.invalid', { variable, reason });
  }
}
