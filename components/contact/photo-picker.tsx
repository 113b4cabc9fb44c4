'use client';

import { useEffect, useLayoutEffect, useRef, useState, type ChangeEvent } from 'react';
import { photoText } from '@/content/contact';
import { formatBytes } from '@/lib/contact-fields';
import { PHOTO_MAX_BYTES, PHOTO_MAX_COUNT } from '@/lib/enquiry-rules.mjs';
import type { DraftPhoto } from '@/lib/contact-draft';
import { downscaleForUpload } from '@/lib/photo-downscale';

/** A chosen photo: the file as picked, and the copy that will be sent (downscaled, without metadata) once it is ready. */
export type PickedPhoto = { id: number; file: File; previewUrl: string; prepared: Promise<File> };

/** A photo kept on the device from an earlier visit (lib/contact-draft.ts): already prepared. */
export function photoFromDraft(photo: DraftPhoto): PickedPhoto {
  const file = new File([photo.blob], photo.name, { type: photo.type });
  return { id: photo.id, file, previewUrl: URL.createObjectURL(file), prepared: Promise.resolve(file) };
}

type PhotoPickerProps = {
  photos: PickedPhoto[];
  onChange: (photos: PickedPhoto[]) => void;
  error?: string;
  onProblem: (message: string | undefined) => void;
  register: (element: HTMLInputElement | null) => void;
  /** The picker's label, where it is not the enquiry form's optional photos. */
  label?: string;
};

// Increasing across page loads too, so a photo chosen now never takes the id of one kept from before.
let nextId = Date.now();

/** What the form can tell about a chosen file before sending; the server checks the content itself. */
function problemWith(file: File): string | null {
  if (file.size > PHOTO_MAX_BYTES) return photoText.tooLarge(file.name);
  if (/\.hei[cf]$/i.test(file.name) || /^image\/hei[cf]/i.test(file.type)) return photoText.heic(file.name);
  if (file.type && !file.type.startsWith('image/')) return photoText.notAPhoto(file.name);
  return null;
}

/** The chosen photos as the visitor adds and removes them: checked, prepared, announced, their previews let go. */
function usePhotoChoice({ photos, onChange, onProblem }: Pick<PhotoPickerProps, 'photos' | 'onChange' | 'onProblem'>) {
  const input = useRef<HTMLInputElement | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const latest = useRef(photos);
  useEffect(() => {
    latest.current = photos;
  }, [photos]);

  // Thumbnails are object URLs: released when a photo is removed or the form goes away.
  useEffect(() => () => latest.current.forEach((photo) => URL.revokeObjectURL(photo.previewUrl)), []);

  function addFiles(chosen: File[]) {
    const added: PickedPhoto[] = [];
    const problems: string[] = [];
    for (const file of chosen) {
      const problem = problemWith(file);
      if (problem) problems.push(problem);
      else if (photos.length + added.length >= PHOTO_MAX_COUNT) problems.push(photoText.tooMany);
      // Prepared at once, so a slow phone does it while the visitor types, not after Send.
      else added.push({ id: nextId++, file, previewUrl: URL.createObjectURL(file), prepared: downscaleForUpload(file) });
    }
    if (added.length > 0) onChange([...photos, ...added]);
    onProblem(problems.length > 0 ? [...new Set(problems)].join(' ') : undefined);
    setAnnouncement(added.length > 0 ? photoText.added(added.length, photos.length + added.length) : '');
  }

  function add(event: ChangeEvent<HTMLInputElement>) {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    addFiles(chosen);
  }

  // Photos chosen before the page's script ran are still in the input: listed and prepared like any other.
  useLayoutEffect(() => {
    const element = input.current;
    const chosen = Array.from(element?.files ?? []);
    if (!element || chosen.length === 0) return;
    element.value = '';
    addFiles(chosen);
    // Once, when the picker takes over the input the server rendered.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function remove(photo: PickedPhoto) {
    URL.revokeObjectURL(photo.previewUrl);
    const rest = photos.filter((other) => other.id !== photo.id);
    onChange(rest);
    onProblem(undefined);
    setAnnouncement(photoText.removed(photo.file.name, rest.length));
    input.current?.focus();
  }

  return { inputRef: input, announcement, add, remove };
}

/** The chosen photos as thumbnails, each with its name, size and a remove button. */
function PhotoList({ photos, onRemove }: { photos: PickedPhoto[]; onRemove: (photo: PickedPhoto) => void }) {
  return (
    <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={photoText.listLabel}>
      {photos.map((photo) => (
        <li key={photo.id} className="overflow-hidden rounded-md border border-slate-300 bg-white">
          {/* A local preview of the visitor's own file (an object URL): nothing for next/image to optimise. */}
          <img src={photo.previewUrl} alt="" className="aspect-[4/3] w-full object-cover" />
          <div className="flex items-center justify-between gap-2 p-2 text-sm">
            <span className="min-w-0">
              <span className="block truncate" title={photo.file.name}>
                {photo.file.name}
              </span>
              <span className="text-slate-700">{formatBytes(photo.file.size)}</span>
            </span>
            <button
              type="button"
              onClick={() => onRemove(photo)}
              aria-label={photoText.remove(photo.file.name)}
              className="shrink-0 rounded-md border border-slate-500 px-2 py-1 font-semibold text-brand-900 hover:bg-slate-100"
            >
              {photoText.removeShort}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * Damage photos: chosen from the phone's gallery or taken with its camera, each shown as a
 * thumbnail with its name, size and a remove button. Files the form can already tell are unusable
 * (too large, HEIC, not an image, beyond six) are not added, and the message says which and why.
 */
export function PhotoPicker({ photos, onChange, error, onProblem, register, label = photoText.label }: PhotoPickerProps) {
  const { inputRef, announcement, add, remove } = usePhotoChoice({ photos, onChange, onProblem });
  const full = photos.length >= PHOTO_MAX_COUNT;
  return (
    <div>
      <label htmlFor="contact-photos" className="block font-semibold text-brand-900">
        {label}
      </label>
      <p id="contact-photos-hint" className="text-sm text-slate-700">
        {photoText.hint}
      </p>
      <input
        id="contact-photos"
        ref={(element) => {
          inputRef.current = element;
          register(element);
        }}
        type="file"
        name="photos"
        accept="image/*"
        multiple
        disabled={full}
        onChange={add}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'contact-photos-hint contact-photos-error' : 'contact-photos-hint'}
        className="mt-2 block w-full text-sm text-slate-900 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-4 file:py-2.5 file:font-semibold file:text-white hover:file:bg-brand-800 disabled:opacity-70"
      />
      {error ? (
        <p id="contact-photos-error" className="mt-1 text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
      {photos.length > 0 ? <PhotoList photos={photos} onRemove={remove} /> : null}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
