import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { noRoute } from '../common/errors/api-error.js';
import { Rendered } from '../common/http/body-bytes.adapter.js';
import { languageOf, type LangRequest } from '../common/i18n/language.js';
import { CONSOLE_DIR } from '../config/paths.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** An asset as the build left it, with the compressed copies it wrote beside it. */
interface Asset {
  raw: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * The files of the built console, read once: its page and the assets Vite wrote (their names
 * carry a hash of their content, so they are cached for good), each with the Brotli and gzip
 * copies the build wrote (admin/vite.config.ts). Only names listed in the folder are served;
 * none exist when the console was not built (`npm run build`).
 */
class ConsoleFiles {
  private page?: string | null;
  private assets?: Map<string, Asset>;

  index(): string | null {
    const path = join(CONSOLE_DIR, 'index.html');
    this.page ??= existsSync(path) ? readFileSync(path, 'utf8') : null;
    return this.page;
  }

  asset(name: string): Asset | undefined {
    if (!this.assets) {
      const dir = join(CONSOLE_DIR, 'assets');
      const copy = (file: string) =>
        existsSync(join(dir, file)) ? readFileSync(join(dir, file)) : undefined;
      this.assets = new Map();
      if (existsSync(dir)) {
        for (const file of readdirSync(dir)) {
          if (!TYPES[extname(file)]) continue;
          this.assets.set(file, {
            raw: readFileSync(join(dir, file)),
            br: copy(`${file}.br`),
            gzip: copy(`${file}.gz`),
          });
        }
      }
    }
    return this.assets.get(name);
  }
}

/** The routes of ConsoleController, which BASE_PATH does not prefix (configure-app.ts). */
export const CONSOLE_ROUTES = ['admin', 'admin/assets/:file'];

/**
 * The editors' console (CONTRACT §2): a page and its assets, served under every language prefix
 * (`/admin/`, `/hu/admin/`, `/ro/admin/`) under the server's CSP. The page is told its language by
 * its `<html lang>`; it talks only to the REST API and to the session routes.
 */
@ApiExcludeController()
@Controller()
export class ConsoleController {
  private readonly files = new ConsoleFiles();

  @Get('admin')
  page(@Req() req: Request, @Res({ passthrough: true }) res: Response): Rendered | undefined {
    const prefix = (req as LangRequest).pathPrefix ?? '';
    // The page's assets are named relative to it: `/admin` must become `/admin/`.
    if (!req.originalUrl.split('?')[0].endsWith('/')) {
      const query = req.originalUrl.includes('?')
        ? req.originalUrl.slice(req.originalUrl.indexOf('?'))
        : '';
      res.redirect(301, `${prefix}/admin/${query}`);
      return undefined;
    }
    const page = this.files.index();
    if (page === null) throw noRoute();
    res.type('text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    return new Rendered(
      200,
      Buffer.from(page.replace(/<html lang="[a-z]+">/, `<html lang="${languageOf(req)}">`)),
    );
  }

  @Get('admin/assets/:file')
  asset(
    @Param('file') file: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Rendered {
    const asset = this.files.asset(file);
    if (!asset) throw noRoute();
    res.type(TYPES[extname(file)]);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
    const encoded = accepted === 'br' ? asset.br : accepted === 'gzip' ? asset.gzip : undefined;
    if (!encoded) return new Rendered(200, asset.raw);
    res.setHeader('Content-Encoding', accepted as string);
    return new Rendered(200, encoded);
  }
}
