// locutus ships CommonJS without type declarations; this is the one function the project uses.
declare module 'locutus/php/datetime/strtotime.js' {
  /**
   * PHP `strtotime()` port. `now` is a Unix timestamp in seconds; the result is a Unix timestamp
   * in seconds, or false when the text cannot be parsed. Uses the process-local time zone.
   */
  function strtotime(text: string, now?: number): number | false;
  export = strtotime;
}
