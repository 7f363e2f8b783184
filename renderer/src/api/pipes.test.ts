import { beforeEach, describe, expect, it } from 'vitest';
import { takeToken } from './pipes';

describe("browser mode's token", () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('is read from the URL once, then leaves the address bar and history but survives a reload', () => {
    window.history.pushState(null, '', '/?token=s3cr3t&view=x#top');
    const before = window.history.length;
    expect(takeToken(window)).toBe('s3cr3t');
    expect(window.location.href).not.toContain('s3cr3t');
    expect(window.location.search).toBe('?view=x');
    expect(window.location.hash).toBe('#top');
    expect(window.history.length).toBe(before); // replaced, not pushed: no entry with the token is added
    // a reload of the cleaned URL still finds it in this tab's storage
    expect(takeToken(window)).toBe('s3cr3t');
  });

  it('is null when neither the URL nor this tab holds one', () => {
    expect(takeToken(window)).toBeNull();
  });
});
