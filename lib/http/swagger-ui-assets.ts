import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

// Swagger UI's prebuilt script and styles (the npm package swagger-ui-dist), served from this server as they ship:
// the API reference page loads them in the browser, so the app's build never compiles them (docs/PERFORMANCE.md,
// "First start") and nothing is fetched from elsewhere.
const ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;
type AssetName = keyof typeof ASSETS;

const folder = () => path.join(process.cwd(), 'node_modules', 'swagger-ui-dist');
let version: string | undefined;

/** The addresses of Swagger UI's script and styles, versioned so a browser may keep them for good. */
export function swaggerUiAssetUrls(): { script: string; style: string } {
  version ??= (JSON.parse(readFileSync(path.join(folder(), 'package.json'), 'utf8')) as { version: string }).version;
  const url = (name: AssetName) => `/docs/api/assets/${name}?v=${encodeURIComponent(version!)}`;
  return { script: url('swagger-ui-bundle.js'), style: url('swagger-ui.css') };
}

/** One of Swagger UI's two files by its name; any other name is null (nothing else of the folder is served). */
export async function readSwaggerUiAsset(name: string): Promise<{ body: Buffer; contentType: string } | null> {
  if (!Object.hasOwn(ASSETS, name)) return null;
  const asset = name as AssetName;
  return { body: await readFile(path.join(folder(), asset)), contentType: ASSETS[asset] };
}
