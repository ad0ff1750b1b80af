import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

/**
 * The error to throw for an item: errors the node already raised keep their HTTP details and
 * gain the item index; anything else becomes a NodeOperationError naming the item.
 */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
