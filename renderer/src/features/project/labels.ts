/** The words map lives in the contract (`electron/contract/words.ts`), shared with the CLI. */
export { humanError, humanState, humanStatus } from '../../../../electron/contract/words';
