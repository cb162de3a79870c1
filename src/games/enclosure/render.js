function drawBoard(svg, setup, frame) {}
