import { describe, expect, it } from 'vitest';
import { hostsNamed, hostsToOffer } from './network-hosts';

describe('the hosts a network command names (what "Allow <host>" offers)', () => {
  it('names URL hosts (with a port that is not the scheme\'s) and package tools\' registries', () => {
    expect(hostsNamed('npm install left-pad')).toEqual(['registry.npmjs.org']);
    expect(hostsNamed('cd web && pip install -r requirements.txt')).toEqual(['pypi.org', 'files.pythonhosted.org']);
    expect(hostsNamed('curl -fsS https://example.com/x.tgz http://127.0.0.1:8080/a https://example.com:443/y')).toEqual(['example.com', '127.0.0.1:8080']);
    expect(hostsNamed('/usr/local/bin/cargo fetch')).toEqual(['index.crates.io', 'static.crates.io']);
    expect(hostsNamed('echo npmrc')).toEqual([]);
  });
  it('offers only what the allowed hosts do not cover yet', () => {
    expect(hostsToOffer('npm install && curl http://127.0.0.1:8080/', ['registry.npmjs.org'])).toEqual(['127.0.0.1:8080']);
    expect(hostsToOffer('curl http://127.0.0.1:8080/', ['127.0.0.1:8080'])).toEqual([]);
    expect(hostsToOffer('pip install x', ['*.pythonhosted.org'])).toEqual(['pypi.org']);
    expect(hostsToOffer('curl http://a..b/ http://-x.org/', [])).toEqual([]);
  });
});
