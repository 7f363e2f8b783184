/** The words map lives in the contract (`electron/contract/words.ts`), shared with the CLI. */
export { branchRemovedWords, commitWords, entryOutcome, laneWorkWords, humanError, humanOutcome, humanState, humanStatus, runStatusWords, skipWords, stepWords, unplannedWarning } from '../../../../electron/contract/words';
