/// Python (its zlib alone: no image library is installed) that reads an
/// 8-bit RGB or RGBA, non-interlaced PNG: `rows(path)` gives its width,
/// its channels per pixel and its unfiltered rows. Tests append what they
/// do with the pixels and run it with `python3 -c`.
public enum PNGPixels {
    public static let reader = """
        import sys, zlib, struct
        def rows(path):
            data = open(path, 'rb').read()
            pos, idat, width, height, kind = 8, b'', 0, 0, 0
            while pos < len(data):
                length, tag = struct.unpack('>I4s', data[pos:pos + 8])
                chunk = data[pos + 8:pos + 8 + length]
                if tag == b'IHDR': width, height, depth, kind = struct.unpack('>IIBB', chunk[:10])
                if tag == b'IDAT': idat += chunk
                pos += 12 + length
            channels = {2: 3, 6: 4}[kind]
            raw, stride, out, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
            for y in range(height):
                kind_of_filter, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
                for i in range(stride):
                    left = line[i - channels] if i >= channels else 0
                    up, corner = previous[i], previous[i - channels] if i >= channels else 0
                    if kind_of_filter == 1: line[i] = (line[i] + left) & 255
                    elif kind_of_filter == 2: line[i] = (line[i] + up) & 255
                    elif kind_of_filter == 3: line[i] = (line[i] + (left + up) // 2) & 255
                    elif kind_of_filter == 4:
                        p = left + up - corner
                        pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                        line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
                out.append(line)
                previous = line
            return width, channels, out

        """
}
