import { describe, expect, it } from 'vitest';
import { mediaTypeOf, parseMediaType } from './media-type.mjs';

describe('mediaTypeOf', () => {
  it('names the type and subtype without parameters', () => {
    expect(mediaTypeOf('multipart/form-data; boundary=----formdata')).toBe('multipart/form-data');
    expect(mediaTypeOf('application/json')).toBe('application/json');
  });

  it('is not case-sensitive and lets white space around the type and the semicolons be', () => {
    expect(mediaTypeOf('Multipart/Form-Data;Boundary=x')).toBe('multipart/form-data');
    expect(mediaTypeOf(' \tAPPLICATION/JSON \t; charset=utf-8')).toBe('application/json');
  });

  it('answers undefined for a missing or malformed header', () => {
    expect(mediaTypeOf(undefined)).toBeUndefined();
    expect(mediaTypeOf(null)).toBeUndefined();
    expect(mediaTypeOf('')).toBeUndefined();
    expect(mediaTypeOf(';boundary=x')).toBeUndefined();
    expect(mediaTypeOf('multipart')).toBeUndefined();
    expect(mediaTypeOf('multipart/')).toBeUndefined();
    expect(mediaTypeOf('/form-data')).toBeUndefined();
    expect(mediaTypeOf('multipart/form-data/x')).toBeUndefined();
    expect(mediaTypeOf('multipart / form-data')).toBeUndefined();
    expect(mediaTypeOf('multipart/form data')).toBeUndefined();
  });
});

describe('parseMediaType', () => {
  const parameters = (header: string) => Object.fromEntries(parseMediaType(header)?.parameters ?? []);

  it('reads parameters by lower-case name, their values as sent', () => {
    expect(parameters('multipart/form-data; BOUNDARY=AbC123; charset=UTF-8')).toEqual({ boundary: 'AbC123', charset: 'UTF-8' });
  });

  it('reads a quoted value whole: semicolons, spaces and escaped quotes in it', () => {
    expect(parameters('multipart/form-data; boundary="a; b \\"c\\"" ; charset=utf-8')).toEqual({
      boundary: 'a; b "c"',
      charset: 'utf-8',
    });
    expect(parameters('text/plain; name=""')).toEqual({ name: '' });
  });

  it('leaves out malformed parameters and keeps the first of a name', () => {
    expect(parameters('text/plain;;charset;=x;a="b" c;e=f g;h=1;H=2')).toEqual({ h: '1' });
    // An unclosed quote runs to the end of the header: nothing after it is a parameter.
    expect(parameters('text/plain; h=1; d="unclosed; e=f')).toEqual({ h: '1' });
  });

  it('has no parameters when none are sent', () => {
    expect(parseMediaType('text/html')).toEqual({ type: 'text/html', parameters: new Map() });
  });
});
