// Generates the TypeScript types of an OpenAPI document with openapi-typescript's programmatic API, as an
// integrator would: node test/server/support/openapi-typescript.mjs <document.json> <out.d.ts>
// It runs in plain Node (a child process of the test) because openapi-typescript's helpers are ES modules
// that Jest's CommonJS runtime cannot load.
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'

const [documentPath, outPath] = process.argv.slice(2)
const document = JSON.parse(await readFile(documentPath, 'utf8'))
// an error the bundler finds in the document is thrown (exit code 1); a warning is printed on stderr
const ast = await openapiTS(document)
await writeFile(outPath, astToString(ast))
