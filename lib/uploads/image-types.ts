/**
 * What an uploaded image really is, read from its first bytes as libvips does when the real
 * server decodes it (zerver/lib/thumbnail.py `libvips_check_image`, loaders limited to HEIF/AVIF,
 * GIF, JPEG, PNG, TIFF and WebP): the declared content type of a multipart part is not trusted.
 * Only the signatures are read, a constant amount of work; a file whose signature matches but
 * whose body is corrupt is accepted here (the real server would fail to decode it).
 */
import { ApiError } from '../errors.js';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + prefix.length && prefix.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** ISO base media brands libvips' HEIF loader reads (AVIF and HEIC stills and sequences). */
const HEIF_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/** The image format the bytes hold, or undefined when no loader the real server enables reads them. */
export function sniffImageFormat(bytes: Uint8Array): 'png' | 'gif' | 'jpeg' | 'webp' | 'tiff' | 'heif' | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(bytes, ascii('ftyp'), 4) && bytes.length >= 12) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (HEIF_BRANDS.has(brand)) return 'heif';
  }
  return undefined;
}

/** The real server's `BadImageError` for bytes libvips cannot decode. */
export const undecodableImage = (): ApiError => new ApiError('BAD_IMAGE', 400, 'Could not decode image; did you upload an image file?');

/** Throws the real server's decode error unless the bytes are an image it can read. */
export function checkDecodableImage(bytes: Uint8Array): void {
  if (sniffImageFormat(bytes) === undefined) throw undecodableImage();
}
