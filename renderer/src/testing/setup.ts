// Every renderer test file: what a test rendered is unmounted after it. The files share one worker and its document
// (vitest.config.ts), so a render left behind showed up in the next file's queries (two "status" roles in
// ServerResources after SandboxNotice's renders), depending on which files a worker happened to run before it.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
