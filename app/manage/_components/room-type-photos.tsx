'use client';

import { useTranslations } from 'next-intl';
import { startTransition, useActionState, useId, useState, type FormEvent } from 'react';
import { addRoomTypePhotoAction, removeRoomTypePhotoAction } from '@/app/manage/room-types/actions';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

/** The longest side a photo is sent at, and its JPEG quality: a booking site on a phone needs no more. */
const MAX_SIDE = 1600;
const QUALITY = 0.82;
const MAX_PHOTOS = 6;
const MAX_BYTES = 1024 * 1024;

/**
 * The photo as the browser sends it: scaled down to 1600 px on its longest side and re-encoded as JPEG
 * when it is larger than that or than 1 MB; a small photo goes as it is. Null when the browser cannot
 * read it as an image.
 */
async function preparePhoto(file: File): Promise<Blob | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  if (scale === 1 && file.size <= MAX_BYTES) {
    bitmap.close();
    return file;
  }
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', QUALITY));
}

type Photo = { id: string; alt: string };

/** A room type's photos: each shown with a remove button, and an upload of one more while there are fewer than six. */
export function RoomTypePhotos({ roomTypeId, photos }: { roomTypeId: string; photos: Photo[] }) {
  const t = useTranslations('roomTypes.photos');
  const id = useId();
  const [added, add, adding] = useActionState(addRoomTypePhotoAction, null);
  const [removed, remove, removing] = useActionState(removeRoomTypePhotoAction, null);
  const [preparing, setPreparing] = useState(false);
  const [unreadable, setUnreadable] = useState(false);
  const full = photos.length >= MAX_PHOTOS;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get('photo');
    setUnreadable(false);
    if (!(file instanceof File) || file.size === 0) {
      startTransition(() => add(data));
      return;
    }
    setPreparing(true);
    const prepared = await preparePhoto(file);
    setPreparing(false);
    if (!prepared) {
      setUnreadable(true);
      return;
    }
    data.set('photo', prepared, file.name);
    startTransition(() => add(data));
    form.reset();
  }

  const addError = added && !added.ok ? added.error : null;
  return (
    <div className="form" data-testid="room-type-photos">
      <p className="muted">{t('lead')}</p>
      {photos.length === 0 ? (
        <p className="muted" data-testid="room-type-photos-empty">
          {t('empty')}
        </p>
      ) : (
        <ul className={styles.photoGrid} data-testid="room-type-photo-list">
          {photos.map((photo, index) => (
            <li key={photo.id} className={styles.photo}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a private, already small photo; no optimiser here */}
              <img
                src={`/manage/room-types/${roomTypeId}/photos/${photo.id}`}
                alt={photo.alt || t('number', { number: index + 1 })}
                width={160}
                height={120}
                loading="lazy"
              />
              <form action={remove}>
                <input type="hidden" name="roomTypeId" value={roomTypeId} />
                <input type="hidden" name="photoId" value={photo.id} />
                <Button type="submit" variant="secondary" loading={removing} data-testid="room-type-photo-remove">
                  {t('remove', { number: index + 1 })}
                </Button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {removed && (
        <ActionResult
          attempt={removed.attempt}
          tone={removed.ok ? 'success' : 'error'}
          testId="room-type-photo-removed"
        >
          {removed.ok ? t('removed') : removed.error.message}
        </ActionResult>
      )}
      {full ? (
        <p data-testid="room-type-photos-full">{t('full')}</p>
      ) : (
        <form onSubmit={submit} noValidate className="form" data-testid="room-type-photo-form">
          <input type="hidden" name="roomTypeId" value={roomTypeId} />
          <div className={styles.grid}>
            <Field
              id={`${id}-photo`}
              label={t('file')}
              error={addError?.field === 'photo' ? addError.message : unreadable ? t('error.unreadable') : undefined}
            >
              {(control) => (
                <Input
                  {...control}
                  type="file"
                  name="photo"
                  accept="image/jpeg,image/png,image/webp"
                  required
                  data-testid="room-type-photo-file"
                />
              )}
            </Field>
            <Field id={`${id}-alt`} label={t('alt')}>
              {(control) => <Input {...control} name="alt" maxLength={200} data-testid="room-type-photo-alt" />}
            </Field>
          </div>
          <div className="form__submit-row">
            <Button
              variant="primary"
              type="submit"
              loading={adding || preparing}
              loadingLabel={t('adding')}
              data-testid="room-type-photo-add"
            >
              {t('add')}
            </Button>
          </div>
        </form>
      )}
      {added && (
        <ActionResult attempt={added.attempt} tone={added.ok ? 'success' : 'error'} testId="room-type-photo-result">
          {added.ok ? t('added') : added.error.message}
        </ActionResult>
      )}
    </div>
  );
}
