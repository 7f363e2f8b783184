// The renderer's client of the contract is the contract's own RpcClient (shared with Erasmus's MCP servers).
export { RpcClient } from '../../../electron/contract/index';
