import { useId, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { coverCrop, FOCAL_SCALE } from '../../../src/modules/media/media.sizes.js';
import type { FocalPoint as Point } from '../../../src/modules/media/media.schemas.js';

const CENTRE: Point = { x: 0.5, y: 0.5 };
/** What the server keeps (media.columns.ts): 3 decimals. */
const kept = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
const percent = (value: number) => Math.round(value * 1000) / 10;

interface Props {
  src: string;
  /** The image's shown size, which the server's crops are cut from. */
  width: number;
  height: number;
  value: Point | null;
  onChange(value: Point | null): void;
}

/**
 * Where crops of the image are centred: a click on the image, the arrow keys on it (Shift for steps of 10 %), or
 * the two numbers. The previews cut the same windows the server's `cover` sizes do (coverCrop).
 */
export function FocalPointField({ src, width, height, value, onChange }: Props) {
  const point = value ?? CENTRE;
  const hintId = useId();
  const move = (x: number, y: number) => onChange({ x: kept(x), y: kept(y) });

  const click = (event: MouseEvent<HTMLButtonElement>) => {
    // A button pressed with Enter or Space reports a click at no position: only the pointer places the point.
    if (event.detail === 0) return;
    const box = event.currentTarget.getBoundingClientRect();
    // To the whole percent, the arrow keys' step: a pointer is no more precise than that on a preview this small.
    const at = (offset: number, length: number) => Math.round((offset / length) * 100) / 100;
    move(at(event.clientX - box.left, box.width), at(event.clientY - box.top, box.height));
  };
  const key = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.shiftKey ? 0.1 : 0.01;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const by = moves[event.key];
    if (!by) return;
    event.preventDefault();
    move(point.x + by[0], point.y + by[1]);
  };

  return (
    <fieldset className="focal-field">
      <legend>Focal point</legend>
      <p id={hintId} className="hint">
        What crops of this image keep in view. Click the image where it matters, or focus it and move the point with the
        arrow keys (Shift for bigger steps).
      </p>
      <button
        type="button"
        className="focal-image"
        aria-label={`Focal point: ${percent(point.x)} % across, ${percent(point.y)} % down`}
        aria-describedby={hintId}
        onClick={click}
        onKeyDown={key}
      >
        <img src={src} alt="" width={width} height={height} draggable={false} />
        <span
          className="focal-marker"
          aria-hidden="true"
          style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
        />
      </button>
      <div className="focal-numbers">
        <PercentInput label="Across (%)" value={point.x} onChange={(x) => move(x, point.y)} />
        <PercentInput label="Down (%)" value={point.y} onChange={(y) => move(point.x, y)} />
        <button type="button" onClick={() => onChange(null)} disabled={value === null}>
          Centre
        </button>
      </div>
      <div className="crop-previews">
        <CropPreview label="Square crop" src={src} image={{ width, height }} aspect={1} point={point} />
        <CropPreview label="Wide crop" src={src} image={{ width, height }} aspect={16 / 9} point={point} />
      </div>
    </fieldset>
  );
}

/** A number from 0 to 100 as typed: what is not one yet (an emptied field) stays in the field, unsent. */
function PercentInput({ label, value, onChange }: { label: string; value: number; onChange(value: number): void }) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        max={100}
        step={0.1}
        inputMode="decimal"
        value={draft ?? String(percent(value))}
        onChange={(event) => {
          const text = event.target.value;
          setDraft(text);
          const n = Number(text);
          if (text.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 100) onChange(n / 100);
        }}
        onBlur={() => setDraft(null)}
      />
    </div>
  );
}

const PREVIEW_HEIGHT = 96;

/** The window a `cover` crop of this aspect ratio keeps, as large as the image allows, drawn small. */
function CropPreview(props: {
  label: string;
  src: string;
  image: { width: number; height: number };
  aspect: number;
  point: Point;
}) {
  const { image, aspect, point } = props;
  const box =
    aspect >= image.width / image.height
      ? { width: image.width, height: Math.max(1, Math.round(image.width / aspect)) }
      : { width: Math.max(1, Math.round(image.height * aspect)), height: image.height };
  const crop = coverCrop(image, box, { x: Math.round(point.x * FOCAL_SCALE), y: Math.round(point.y * FOCAL_SCALE) });
  const scale = PREVIEW_HEIGHT / box.height;
  return (
    <figure className="crop-preview">
      <div className="crop-window" style={{ width: box.width * scale, height: PREVIEW_HEIGHT }}>
        <img
          src={props.src}
          alt=""
          style={{
            width: crop.scaled.width * scale,
            height: crop.scaled.height * scale,
            left: -crop.left * scale,
            top: -crop.top * scale,
          }}
        />
      </div>
      <figcaption>{props.label}</figcaption>
    </figure>
  );
}
